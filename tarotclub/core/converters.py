class TokenConverter:
    """A share token: URL-safe base64, as `secrets.token_urlsafe` makes it."""

    regex = "[A-Za-z0-9_-]{1,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
