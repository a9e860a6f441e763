"""The site's management commands (``commands``)."""
