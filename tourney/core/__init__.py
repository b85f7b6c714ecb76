"""What every write uses (issue 21): the tournament lock (``locking``), the audit log
(``events``, ``event_rows``), the undo journal (``journal``), plain-SQL rows (``rows``), the
recorded draws (``rng``), shared messages and the scheduling port (``schedule``). Imports only
the models and the engines."""
