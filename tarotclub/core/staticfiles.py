"""Static files as `make serve` sends them: comments and indentation left out, gzip made smaller.

A phone's first visit downloads the stylesheets and scripts; on a club's Wi-Fi every kilobyte
counts (issue 12: the deal page's first load at most 30 KB on the wire). The sources stay
commented and readable; `collectstatic` writes them without their comments and indentation
(`minify`), then WhiteNoise compresses them, here with Zopfli (a gzip stream that any browser
reads, 3 to 8 % smaller than gzip -9) when the library is there (WeasyPrint's font tools bring
it). Nothing is renamed or rewritten: what is left out is only comments and whitespace, so the
rules and the code are exactly the sources'.
"""

from __future__ import annotations

import gzip
import io
import os
import re

from django.core.files.base import ContentFile
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

try:  # pragma: no cover - depends on the environment
    import zopfli.gzip as _zopfli
except ImportError:  # pragma: no cover
    _zopfli = None

# CSS: a string, a comment, or anything else up to the next string or comment.
_CSS_TOKEN = re.compile(
    r"""(?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')"""
    r"|(?P<comment>/\*.*?\*/)"
    r"""|(?P<other>(?:[^"'/]|/(?!\*))+|["'/])""",  # a lone quote or "/*" is kept as it is
    re.S,
)
_CSS_SPACE = re.compile(r"\s+")
_GAP = "\x00"  # where a comment was
_CSS_GLUED = re.compile(r"(?<=[\w\-.%#@\\])\x00+(?=[\w\-.%#@\\])")
# Spaces around these never matter in CSS (outside strings). Not around ":" before it
# (".a :hover" is not ".a:hover") nor around "+", "-", ">" or "~" (calc(), selectors).
_CSS_AROUND = re.compile(r" ?([{};,]) ?")
_CSS_AFTER_COLON = re.compile(r": ")


def minify_css(text: str) -> str:
    """The stylesheet without its comments and with no more whitespace than its rules need.

    Strings are kept as they are and only the text between them is squeezed; a comment is
    dropped, or left empty where dropping it would glue two words into one."""
    parts: list[tuple[bool, str]] = []  # (is a string, text)
    for m in _CSS_TOKEN.finditer(text):
        if m.group("string") is not None:
            parts.append((True, m.group("string")))
            continue
        other = m.group("other") if m.group("other") is not None else _GAP
        if parts and not parts[-1][0]:
            other = parts.pop()[1] + other
        parts.append((False, other))
    out = []
    for is_string, part in parts:
        if not is_string:
            # A comment is no space (".a/**/.b" is ".a.b"); between two word characters it
            # keeps them apart as an empty comment, elsewhere it goes.
            part = _CSS_GLUED.sub("/**/", part).replace(_GAP, "")
            part = _CSS_AROUND.sub(r"\1", _CSS_SPACE.sub(" ", part))
            part = _CSS_AFTER_COLON.sub(":", part).replace(";}", "}")
        out.append(part)
    return "".join(out).strip() + "\n"


_JS_LINE_COMMENT = re.compile(r"^\s*//")


def minify_js(text: str) -> str:
    """The script without its comment lines, indentation and blank lines.

    Line by line only, so it cannot break a string, a regular expression or automatic
    semicolons: a line is dropped only when it is a comment from its start (``//`` or a
    ``/* ... */`` block opening at the line's start), and each line keeps its line break. A
    script with a template literal or a line continuation is left as it is (a line there
    could be inside a string)."""
    if "`" in text or re.search(r"\\\r?\n", text):
        return text
    out = []
    in_block = False
    for line in text.splitlines():
        stripped = line.strip()
        if in_block:
            if "*/" in stripped:
                in_block = False
                rest = stripped.split("*/", 1)[1].strip()
                if rest:
                    out.append(rest)
            continue
        if stripped.startswith("/*"):
            if "*/" not in stripped[2:]:
                in_block = True
                continue
            rest = stripped[2:].split("*/", 1)[1].strip()
            if rest:
                out.append(rest)
            continue
        if not stripped or _JS_LINE_COMMENT.match(line):
            continue
        if stripped.rfind("/*") > stripped.rfind("*/"):
            return text  # a comment opens after code: its lines cannot be told from code here
        out.append(stripped)
    return "\n".join(out) + "\n"


def minify(name: str, data: bytes) -> bytes:
    """`data` as served under `name`: CSS and scripts minified, anything else unchanged
    (already minified files, ``*.min.js``, too)."""
    lower = name.lower()
    if lower.endswith(".min.js") or lower.endswith(".min.css"):
        return data
    if lower.endswith(".css"):
        return minify_css(data.decode("utf-8")).encode("utf-8")
    if lower.endswith(".js"):
        return minify_js(data.decode("utf-8")).encode("utf-8")
    return data


def gzip_bytes(data: bytes) -> bytes:
    """A gzip stream of `data` without a timestamp: Zopfli when installed, else gzip -9."""
    if _zopfli is not None:
        return _zopfli.compress(data, numiterations=1)  # about all of Zopfli's gain, fast
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=9, mtime=0) as f:
        f.write(data)
    return out.getvalue()


#: Static files of other apps sent with WhiteNoise's own gzip -9: the admin's 1.8 MB are for
#: staff on a laptop, and Zopfli on them would add seconds to every `make serve` start.
PLAIN_GZIP = ("admin/",)


class _Compressor(Compressor):
    """WhiteNoise's compressor (it runs in threads: no state per file), gzip by Zopfli."""

    def __init__(self, *, root: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.plain = tuple(os.path.join(root, prefix) for prefix in PLAIN_GZIP)

    def compress(self, path):
        if path.startswith(self.plain):
            return super().compress(path)
        filenames = []
        with open(path, "rb") as f:
            stat_result = os.fstat(f.fileno())
            data = f.read()
        if self.use_brotli:
            packed = self.compress_brotli(data)
            if not self.is_compressed_effectively("Brotli", path, len(data), packed):
                return filenames
            filenames.append(self.write_data(path, packed, ".br", stat_result))
        if self.use_gzip:
            packed = gzip_bytes(data)
            if self.is_compressed_effectively("Gzip", path, len(data), packed):
                filenames.append(self.write_data(path, packed, ".gz", stat_result))
        return filenames


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's compressed, hashed static files, minified first (see the module)."""

    def _save(self, name, content):
        if name.lower().endswith((".css", ".js")):
            content.seek(0)
            data = content.read()
            if isinstance(data, str):
                data = data.encode("utf-8")
            content = ContentFile(minify(name, data))
        return super()._save(name, content)

    def create_compressor(self, **kwargs):
        return _Compressor(root=self.location, **kwargs)
