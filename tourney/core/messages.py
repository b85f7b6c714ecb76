"""Messages more than one layer shows."""

MSG_NOT_FOUND = "No such tournament."
MSG_TOURNAMENT_FINISHED = "The tournament is finished."
