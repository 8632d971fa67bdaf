"""Is a secret key good enough for production? Pure Python: the settings and bin/serve.py use it."""

from __future__ import annotations

MIN_LENGTH = 50
MIN_UNIQUE = 5
# Keys that are written down somewhere: the examples of tutorials, Django's startproject
# ("django-insecure-..."), this project's own dev and test keys.
PLACEHOLDERS = (
    "django-insecure",
    "dev-only",
    "test-only",
    "changeme",
    "change-me",
    "change_me",
    "secret",
    "replace-me",
    "replaceme",
    "replace_me",
    "insecure",
    "your-secret",
    "your_secret",
    "example",
    "xxxxxxxx",
    "placeholder",
)
HOW_TO_MAKE_ONE = (
    'python3 -c "import secrets; print(secrets.token_urlsafe(50))" '
    "(`make serve` makes one by itself and keeps it in var/secret_key)"
)


def secret_key_problem(key: str | None) -> str | None:
    """What is wrong with `key` as a production secret key, or None when it is fine."""
    if not key:
        return "it is empty"
    if key != key.strip():
        return "it starts or ends with spaces"
    if len(key) < MIN_LENGTH:
        return f"it is shorter than {MIN_LENGTH} characters ({len(key)})"
    if len(set(key)) < MIN_UNIQUE:
        return f"it has fewer than {MIN_UNIQUE} different characters"
    lowered = key.lower()
    for placeholder in PLACEHOLDERS:
        if lowered.startswith(placeholder):
            return f"it is a known placeholder (it starts with {placeholder!r})"
    return None
