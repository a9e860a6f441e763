"""A link to another page of a list on a page with several (the director's console):
``{% page_link query "deals_page" 2 %}`` is the page's query string asking for page 2 of that
list, the other lists and the session kept."""

from __future__ import annotations

from django import template
from django.http import QueryDict

register = template.Library()


@register.simple_tag
def page_link(query: str, name: str, number) -> str:
    q = QueryDict(query or "", mutable=True)
    q[name] = str(number)
    return "?" + q.urlencode()
