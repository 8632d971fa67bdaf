"""Static files as `make serve` sends them (tarotclub.core.staticfiles): minified, the rules and
the code unchanged, gzip smaller than gzip -9; the storage does it at collectstatic."""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import pytest
import tinycss2
from django.contrib.staticfiles import finders
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotclub.core import staticfiles
from tarotclub.core.staticfiles import gzip_bytes, minify, minify_css, minify_js


def _tokens(nodes):
    """A CSS component list as a parser reads it, whitespace kept only where it can matter:
    one mark for any run of whitespace, none at an end, next to a comma, a semicolon or a
    brace (a selector cannot hold those), nor after a colon (only before one: ".a :hover")."""
    out = []
    for node in nodes:
        if node.type == "comment":
            continue
        assert node.type != "error", node  # a parse error: not CSS that means something
        if node.type == "whitespace":
            if out and out[-1] != " " and out[-1] not in (",", ":", ";", "{", "}"):
                out.append(" ")
            continue
        if node.type == "literal" and node.value in ",;{}" and out and out[-1] == " ":
            out.pop()
        if node.type == "function":
            item = ("function", node.lower_name, tuple(_tokens(node.arguments)))
        elif node.type in ("() block", "[] block", "{} block"):
            item = (node.type, tuple(_tokens(node.content)))
        else:
            item = node.value if node.type == "literal" else (node.type, node.serialize())
        out.append(item)
    while out and out[-1] == " ":
        out.pop()
    return out


def _sheet(css: str):
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    read = []
    for rule in rules:
        assert rule.type != "error", rule
        prelude = tuple(_tokens(rule.prelude))
        if rule.content is None:
            read.append((rule.type, prelude, None))
            continue
        body = tinycss2.parse_blocks_contents(rule.content, skip_comments=True)
        items = []
        for item in body:
            if item.type == "whitespace":
                continue
            if item.type == "declaration":
                items.append((item.lower_name, tuple(_tokens(item.value)), item.important))
            elif item.type == "qualified-rule" or item.type == "at-rule":
                items.append(_sheet(item.serialize())[0])
            else:
                assert item.type != "error", item
        read.append((rule.type, prelude, tuple(items)))
    return read


def _site_files(ext: str):
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            if path.endswith(ext) and not path.endswith(".min.js"):
                with storage.open(path) as f:
                    yield path, f.read()


def test_every_stylesheet_reads_the_same_minified():
    seen = 0
    for path, data in _site_files(".css"):
        css = data.decode()
        small = minify_css(css)
        assert _sheet(small) == _sheet(css), path
        assert "/*" not in small.replace('"/*"', ""), path
        assert len(small) < len(css) or "/*" not in css, path
        seen += 1
    assert seen >= 5


def test_css_keeps_strings_and_descendant_pseudo_classes():
    css = '.a :hover , .b>.c{ content : "x ,  /* y */ ;" ; color : red ; }\n/* gone */\n'
    small = minify_css(css)
    # (a space before a colon stays: in a selector it means something)
    assert small == '.a :hover,.b>.c{content :"x ,  /* y */ ;";color :red}\n'
    assert minify_css("a { margin: calc(1rem - 2px) }") == "a{margin:calc(1rem - 2px)}\n"
    assert minify_css('a { b: "open') == 'a{b:"open\n'  # nothing dropped from broken CSS
    assert minify_css("a { b: c } /* open") == "a{b:c}/* open\n"
    media = "@media (min-width: 40em) and (hover: hover) {\n  a { b: c; }\n}"
    assert minify_css(media) == "@media (min-width:40em) and (hover:hover){a{b:c}}\n"


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                ".a",
                " ",
                ":hover",
                "::before",
                ">",
                ",",
                "{",
                "}",
                ";",
                "color",
                ":",
                "red",
                '"a, b;"',
                "'/*'",
                "/* c */",
                "\n",
                "calc(1px + 2%)",
                '[x="y z"]',
                "@media",
                "(min-width: 3em)",
                "!important",
                'url("i.svg")',
                "\t",
            ]
        ),
        max_size=30,
    )
)
def test_css_minified_reads_the_same_for_any_mix(parts):
    css = "".join(parts)
    try:
        original = _sheet(css)
    except AssertionError:  # not a stylesheet a parser accepts: nothing to compare
        return
    assert _sheet(minify_css(css)) == original
    assert minify_css(minify_css(css)) == minify_css(css)


def test_js_comment_lines_and_indentation_go_the_code_stays():
    js = (
        "/* A header\n   over lines. */\n(function () {\n  // a comment\n"
        '  var url = "http://x/*y*/";  // kept: a comment after code\n\n'
        "  if (a) { b(); }\n})();\n"
    )
    assert minify_js(js) == (
        '(function () {\nvar url = "http://x/*y*/";  // kept: a comment after code\n'
        "if (a) { b(); }\n})();\n"
    )


@pytest.mark.parametrize(
    "js",
    [
        "var s = `a\n  // not a comment\n`;\n",  # a template literal: left alone
        "var s = 'a\\\n  // not a comment';\n",  # a line continuation: left alone
        "x(); /* a comment opened after code\n/* not a new one\n*/ y();\n",
    ],
)
def test_js_that_lines_cannot_tell_is_left_as_it_is(js):
    assert minify_js(js) == js


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to parse the scripts")
def test_every_script_minified_still_parses(tmp_path):
    names = []
    for path, data in _site_files(".js"):
        out = tmp_path / path.replace("/", "_")
        out.write_bytes(minify(path, data))
        names.append(str(out))
    assert len(names) >= 3
    check = (
        "const fs = require('fs'), vm = require('vm');"
        "for (const f of process.argv.slice(1)) {"
        "  try { new vm.Script(fs.readFileSync(f, 'utf8'), {filename: f}); }"
        "  catch (e) { console.log(f + ': ' + e.message); process.exitCode = 1; } }"
    )
    done = subprocess.run(["node", "-e", check, *names], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_minify_leaves_other_files_and_minified_scripts_alone():
    assert minify("js/htmx.min.js", b"a  //x\n") == b"a  //x\n"
    assert minify("icons/favicon.svg", b"<svg>  </svg>") == b"<svg>  </svg>"


def test_gzip_is_smaller_than_gzip_9_and_reads_back():
    data = finders.find("js/htmx.min.js")
    raw = Path(data).read_bytes()
    packed = gzip_bytes(raw)
    assert gzip.decompress(packed) == raw
    if staticfiles._zopfli is not None:
        assert len(packed) < len(gzip.compress(raw, 9, mtime=0))


def test_collectstatic_writes_minified_hashed_and_compressed_files(tmp_path, settings):
    settings.STATIC_ROOT = str(tmp_path)
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "tarotclub.core.staticfiles.StaticFilesStorage"},
    }
    from django.core.management import call_command

    # Other apps' files and the images are left out: the slow part, and not what is tested.
    ignore = ["admin", "django_tables2", "django_htmx", "*.png"]
    call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=ignore)
    source = Path(finders.find("css/site.css")).read_text()
    (hashed,) = tmp_path.joinpath("css").glob("site.*.css")
    served = hashed.read_text()
    assert served == minify_css(source)
    assert gzip.decompress(hashed.with_name(hashed.name + ".gz").read_bytes()).decode() == served
    (script,) = tmp_path.joinpath("js").glob("steppers.*.js")
    assert script.read_text() == minify_js(Path(finders.find("js/steppers.js")).read_text())
    assert (
        tmp_path.joinpath("js", "htmx.min.js").read_bytes()
        == Path(finders.find("js/htmx.min.js")).read_bytes()
    )
