#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gupai_site.settings")
    if sys.argv[1:2] != ["runserver"]:
        # An operator's command (migrate, load_demo, …) is no web request: it takes the tasks'
        # statement timeout (settings, DB_TASK_STATEMENT_TIMEOUT), not the web's.
        os.environ["DB_STATEMENT_TIMEOUT"] = os.environ.get("DB_TASK_STATEMENT_TIMEOUT", "300")
        # And it reaches every club's rows (PostgreSQL's row-level security, scoring/domain/row_scope.py).
        from scoring.domain import row_scope

        row_scope.use_by_default(row_scope.system())
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
