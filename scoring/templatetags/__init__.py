"""The pages' template tags and filters: ``tiles`` (tiles drawn inline and the sprite),
``times`` (a stored moment shown, never failing), ``words`` (words for stored codes; session and
table labels), ``clock`` (a session's clock) and ``paging`` (a link to another page of a list)."""
