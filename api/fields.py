"""Schema fields shared by the API's request schemas."""

from __future__ import annotations

from typing import Any

import marshmallow as ma


class List(ma.fields.List):
    """A list whose ``Length(max=...)`` validator is checked before its items are read: a long list
    of bad items is one fault at the list (and the work of one), not one fault per item."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Any]:
        if isinstance(value, list):
            for v in self.validators:
                if isinstance(v, ma.validate.Length) and v.max is not None and len(value) > v.max:
                    raise ma.ValidationError(f"At most {v.max:,} items; this list has {len(value):,}.")
        items: list[Any] = super()._deserialize(value, attr, data, **kwargs)
        return items
