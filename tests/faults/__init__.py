"""The fault-injection run (issue 24): real web, Celery and beat processes against PostgreSQL
and Redis, killed and restarted while desks register and busts are recorded. Runs only when
asked: `make faults` (RUN_FAULTS=1)."""
