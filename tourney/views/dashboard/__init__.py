"""The director dashboard (/td/<tournament>/): panels, actions, setup, floor tools, color-up,
money and printouts. Views are thin; reads for its panels are in ``reads``."""
