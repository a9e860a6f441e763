"""What knows a request or draws a page, shared by ``scoring.api`` and ``scoring.views``."""
