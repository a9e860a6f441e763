"""The API's pages: ``{"count", "next", "previous", "results"}``."""

from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """``PAGE_SIZE`` (50) items a page; ``?page_size=`` asks for another size, up to 200."""

    page_size_query_param = "page_size"
    max_page_size = 200
