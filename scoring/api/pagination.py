"""The API's pages: ``{"count", "next", "previous", "results"}``."""

from rest_framework.pagination import PageNumberPagination

from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import parse_whole_number

#: Digits beyond which a number is only "very large" (Python refuses to read very long ones).
MAX_DIGITS = 18


class Pagination(PageNumberPagination):
    """``PAGE_SIZE`` (50) items a page; ``?page_size=`` asks for another size, up to 200.

    ``page`` and ``page_size`` are read strictly, as the schema says: one whole number from 1
    each (DRF would take ``page=last``, and fall back to the default size for
    ``page_size=abc``, answering something else than what was asked). A page past the last is
    a 404."""

    page_size_query_param = "page_size"
    max_page_size = 200
    page_size_query_description = f"Number of results to return per page (at most {max_page_size}; more is " \
                                  f"read as {max_page_size})."

    def _query_number(self, request, name: str) -> int | None:
        values = request.query_params.getlist(name)
        if not values:
            return None
        # As the schema documents it: a whole number from 1, in digits; a very large one reads
        # as 10**MAX_DIGITS.
        number = parse_whole_number(values[0], low=1, high=10**MAX_DIGITS, clamp=True, canonical=True)
        if len(values) > 1 or number is None:
            raise ValidationFailed(f"{name} must be one whole number from 1.", path="", code=f"bad_{name}")
        return number

    def get_page_size(self, request):
        size = self._query_number(request, self.page_size_query_param)
        return self.page_size if size is None else min(size, self.max_page_size)

    def get_page_number(self, request, paginator):
        return self._query_number(request, self.page_query_param) or 1

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"] = {**parameter["schema"], "minimum": 1}
        return parameters
