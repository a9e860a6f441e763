"""The app's ``manage.py`` commands live in ``commands``."""
