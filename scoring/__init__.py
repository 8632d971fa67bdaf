"""The rules of every game the club scores: pure Python, no Django, no I/O.

Messages are English templates marked with ``_`` so that ``makemessages`` collects them;
the web layer translates ``RuleError.template`` and fills in ``RuleError.params``.
"""

from __future__ import annotations

from typing import Any


def _(message: str) -> str:
    """Mark a message for translation without importing Django (identity at run time)."""
    return message


class RuleError(ValueError):
    """A record that cannot happen under the rules; the message says why in plain words.

    ``template`` is the untranslated message with ``%(name)s`` placeholders, ``params`` fills
    them; ``str(error)`` is the English sentence.
    """

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)

    def translated(self, gettext) -> str:
        """The message in the language of ``gettext`` (e.g. Django's ``gettext``)."""
        text = gettext(self.template)
        return text % self.params if self.params else text


__all__ = ["RuleError", "_"]
