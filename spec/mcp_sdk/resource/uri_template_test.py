"""RFC 6570 URI templates (issue 22, item 6): expansion checked against every example of the RFC's
section 3.2, and matching as its inverse for levels 1-3, with percent-decoding."""

from __future__ import annotations

import typing as t

import pytest

from mcp_sdk import MCPError
from mcp_sdk.resource.uri_template import URITemplate, URITemplateError

# RFC 6570 section 3.2: "the following variables are used in the examples".
VARIABLES: dict[str, t.Any] = {
    "count": ["one", "two", "three"],
    "dom": ["example", "com"],
    "dub": "me/too",
    "hello": "Hello World!",
    "half": "50%",
    "var": "value",
    "who": "fred",
    "base": "http://example.com/home/",
    "path": "/foo/bar",
    "list": ["red", "green", "blue"],
    "keys": {"semi": ";", "dot": ".", "comma": ","},
    "v": "6",
    "x": "1024",
    "y": "768",
    "empty": "",
    "empty_keys": [],
    "undef": None,
}

# Every example of RFC 6570 sections 3.2.1 to 3.2.9, in the RFC's order.
RFC_EXAMPLES = [
    # 3.2.1 Variable Expansion
    ("{count}", "one,two,three"),
    ("{count*}", "one,two,three"),
    ("{/count}", "/one,two,three"),
    ("{/count*}", "/one/two/three"),
    ("{;count}", ";count=one,two,three"),
    ("{;count*}", ";count=one;count=two;count=three"),
    ("{?count}", "?count=one,two,three"),
    ("{?count*}", "?count=one&count=two&count=three"),
    ("{&count*}", "&count=one&count=two&count=three"),
    # 3.2.2 Simple String Expansion: {var}
    ("{var}", "value"),
    ("{hello}", "Hello%20World%21"),
    ("{half}", "50%25"),
    ("O{empty}X", "OX"),
    ("O{undef}X", "OX"),
    ("{x,y}", "1024,768"),
    ("{x,hello,y}", "1024,Hello%20World%21,768"),
    ("?{x,empty}", "?1024,"),
    ("?{x,undef}", "?1024"),
    ("?{undef,y}", "?768"),
    ("{var:3}", "val"),
    ("{var:30}", "value"),
    ("{list}", "red,green,blue"),
    ("{list*}", "red,green,blue"),
    ("{keys}", "semi,%3B,dot,.,comma,%2C"),
    ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
    # 3.2.3 Reserved Expansion: {+var}
    ("{+var}", "value"),
    ("{+hello}", "Hello%20World!"),
    ("{+half}", "50%25"),
    ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
    ("{+base}index", "http://example.com/home/index"),
    ("O{+empty}X", "OX"),
    ("O{+undef}X", "OX"),
    ("{+path}/here", "/foo/bar/here"),
    ("here?ref={+path}", "here?ref=/foo/bar"),
    ("up{+path}{var}/here", "up/foo/barvalue/here"),
    ("{+x,hello,y}", "1024,Hello%20World!,768"),
    ("{+path,x}/here", "/foo/bar,1024/here"),
    ("{+path:6}/here", "/foo/b/here"),
    ("{+list}", "red,green,blue"),
    ("{+list*}", "red,green,blue"),
    ("{+keys}", "semi,;,dot,.,comma,,"),
    ("{+keys*}", "semi=;,dot=.,comma=,"),
    # 3.2.4 Fragment Expansion: {#var}
    ("{#var}", "#value"),
    ("{#hello}", "#Hello%20World!"),
    ("{#half}", "#50%25"),
    ("foo{#empty}", "foo#"),
    ("foo{#undef}", "foo"),
    ("{#x,hello,y}", "#1024,Hello%20World!,768"),
    ("{#path,x}/here", "#/foo/bar,1024/here"),
    ("{#path:6}/here", "#/foo/b/here"),
    ("{#list}", "#red,green,blue"),
    ("{#list*}", "#red,green,blue"),
    ("{#keys}", "#semi,;,dot,.,comma,,"),
    ("{#keys*}", "#semi=;,dot=.,comma=,"),
    # 3.2.5 Label Expansion with Dot-Prefix: {.var}
    ("{.who}", ".fred"),
    ("{.who,who}", ".fred.fred"),
    ("{.half,who}", ".50%25.fred"),
    ("www{.dom*}", "www.example.com"),
    ("X{.var}", "X.value"),
    ("X{.empty}", "X."),
    ("X{.undef}", "X"),
    ("X{.var:3}", "X.val"),
    ("X{.list}", "X.red,green,blue"),
    ("X{.list*}", "X.red.green.blue"),
    ("X{.keys}", "X.semi,%3B,dot,.,comma,%2C"),
    ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
    ("X{.empty_keys}", "X"),
    ("X{.empty_keys*}", "X"),
    # 3.2.6 Path Segment Expansion: {/var}
    ("{/who}", "/fred"),
    ("{/who,who}", "/fred/fred"),
    ("{/half,who}", "/50%25/fred"),
    ("{/who,dub}", "/fred/me%2Ftoo"),
    ("{/var}", "/value"),
    ("{/var,empty}", "/value/"),
    ("{/var,undef}", "/value"),
    ("{/var,x}/here", "/value/1024/here"),
    ("{/var:1,var}", "/v/value"),
    ("{/list}", "/red,green,blue"),
    ("{/list*}", "/red/green/blue"),
    ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
    ("{/keys}", "/semi,%3B,dot,.,comma,%2C"),
    ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
    # 3.2.7 Path-Style Parameter Expansion: {;var}
    ("{;who}", ";who=fred"),
    ("{;half}", ";half=50%25"),
    ("{;empty}", ";empty"),
    ("{;v,empty,who}", ";v=6;empty;who=fred"),
    ("{;v,bar,who}", ";v=6;who=fred"),
    ("{;x,y}", ";x=1024;y=768"),
    ("{;x,y,empty}", ";x=1024;y=768;empty"),
    ("{;x,y,undef}", ";x=1024;y=768"),
    ("{;hello:5}", ";hello=Hello"),
    ("{;list}", ";list=red,green,blue"),
    ("{;list*}", ";list=red;list=green;list=blue"),
    ("{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"),
    ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
    # 3.2.8 Form-Style Query Expansion: {?var}
    ("{?who}", "?who=fred"),
    ("{?half}", "?half=50%25"),
    ("{?x,y}", "?x=1024&y=768"),
    ("{?x,y,empty}", "?x=1024&y=768&empty="),
    ("{?x,y,undef}", "?x=1024&y=768"),
    ("{?var:3}", "?var=val"),
    ("{?list}", "?list=red,green,blue"),
    ("{?list*}", "?list=red&list=green&list=blue"),
    ("{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"),
    ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
    # 3.2.9 Form-Style Query Continuation: {&var}
    ("{&who}", "&who=fred"),
    ("{&half}", "&half=50%25"),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{&x,y,empty}", "&x=1024&y=768&empty="),
    ("{&var:3}", "&var=val"),
    ("{&list}", "&list=red,green,blue"),
    ("{&list*}", "&list=red&list=green&list=blue"),
    ("{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"),
    ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
]


@pytest.mark.parametrize("template, expected", RFC_EXAMPLES)
def test_expansion_gives_the_rfc_example(template: str, expected: str) -> None:
    assert URITemplate(template).expand(VARIABLES) == expected


# Levels 1-3 examples (and the path explode) that read back to the values that expanded them:
# (template, the URI the RFC gives, the values matching recovers: percent-decoded).
ROUND_TRIPS = [
    ("{var}", "value", {"var": "value"}),
    ("{hello}", "Hello%20World%21", {"hello": "Hello World!"}),
    ("{half}", "50%25", {"half": "50%"}),
    ("{x,y}", "1024,768", {"x": "1024", "y": "768"}),
    ("{x,hello,y}", "1024,Hello%20World%21,768", {"x": "1024", "hello": "Hello World!", "y": "768"}),
    ("{+var}", "value", {"var": "value"}),
    ("{+hello}", "Hello%20World!", {"hello": "Hello World!"}),
    ("{+half}", "50%25", {"half": "50%"}),
    ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex", {"base": "http://example.com/home/"}),
    ("{+base}index", "http://example.com/home/index", {"base": "http://example.com/home/"}),
    ("{+path}/here", "/foo/bar/here", {"path": "/foo/bar"}),
    ("here?ref={+path}", "here?ref=/foo/bar", {"path": "/foo/bar"}),
    ("{#var}", "#value", {"var": "value"}),
    ("{#hello}", "#Hello%20World!", {"hello": "Hello World!"}),
    ("{#path,x}/here", "#/foo/bar,1024/here", {"path": "/foo/bar", "x": "1024"}),
    ("{.who}", ".fred", {"who": "fred"}),
    ("X{.var}", "X.value", {"var": "value"}),
    ("{.half,who}", ".50%25.fred", {"half": "50%", "who": "fred"}),
    ("www{.dom*}", "www.example.com", {"dom": ["example", "com"]}),
    ("{/who}", "/fred", {"who": "fred"}),
    ("{/half,who}", "/50%25/fred", {"half": "50%", "who": "fred"}),
    ("{/who,dub}", "/fred/me%2Ftoo", {"who": "fred", "dub": "me/too"}),
    ("{/var,empty}", "/value/", {"var": "value", "empty": ""}),
    ("{/var,x}/here", "/value/1024/here", {"var": "value", "x": "1024"}),
    ("{/list*}", "/red/green/blue", {"list": ["red", "green", "blue"]}),
    ("{;who}", ";who=fred", {"who": "fred"}),
    ("{;half}", ";half=50%25", {"half": "50%"}),
    ("{;empty}", ";empty", {"empty": ""}),
    ("{;v,empty,who}", ";v=6;empty;who=fred", {"v": "6", "empty": "", "who": "fred"}),
    ("{;x,y}", ";x=1024;y=768", {"x": "1024", "y": "768"}),
    ("{?who}", "?who=fred", {"who": "fred"}),
    ("{?half}", "?half=50%25", {"half": "50%"}),
    ("{?x,y}", "?x=1024&y=768", {"x": "1024", "y": "768"}),
    ("{?x,y,empty}", "?x=1024&y=768&empty=", {"x": "1024", "y": "768", "empty": ""}),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024", {"x": "1024"}),
]


@pytest.mark.parametrize("template, uri, values", ROUND_TRIPS)
def test_matching_reads_the_rfc_example_back_and_expanding_that_gives_it_again(template: str, uri: str, values: dict[str, t.Any]) -> None:
    parsed = URITemplate(template)
    assert parsed.match(uri) == values
    assert parsed.expand(values) == uri


@pytest.mark.parametrize(
    "template, values",
    [
        ("file:///{+path}{?rev,lang}", {"path": "src/ünï cödé/a b.py", "rev": "a&b=c", "lang": "en"}),
        ("weather://{city}/now", {"city": "São Paulo, SP?#"}),
        ("mail://{user}@{host}{/box,id}", {"user": "ada lovelace", "host": "example.org", "box": "in/box", "id": "42"}),
        ("search://{?q}", {"q": "100% + 1 = 101?"}),
        ("doc://{name}{.ext}", {"name": "read me", "ext": "md"}),
        ("notes://{+path}{#section}", {"path": "a/b", "section": "part 2/3"}),
    ],
)
def test_any_values_without_their_operators_separator_round_trip(template: str, values: dict[str, str]) -> None:
    parsed = URITemplate(template)
    assert parsed.match(parsed.expand(values)) == values


class TestMatching:
    def test_a_simple_variable_needs_a_value_and_stays_within_a_segment(self) -> None:
        template = URITemplate("weather://{city}/now")
        assert template.match("weather://Oslo/now") == {"city": "Oslo"}
        assert template.match("weather://S%C3%A3o%20Paulo/now") == {"city": "São Paulo"}
        assert template.match("weather://a/b/now") is None
        assert template.match("weather:///now") is None
        assert template.match("weather://Oslo/later") is None

    def test_reserved_expansion_spans_segments_but_not_the_query(self) -> None:
        template = URITemplate("file:///{+path}")
        assert template.match("file:///src/mcp%20sdk/a.py") == {"path": "src/mcp sdk/a.py"}
        assert template.match("file:///src/a.py?rev=2") is None

    def test_a_trailing_query_is_read_in_any_order_partially_and_ignoring_others(self) -> None:
        template = URITemplate("logs://{service}{?since,level}")
        assert template.match("logs://api") == {"service": "api"}
        assert template.match("logs://api?level=error") == {"service": "api", "level": "error"}
        assert template.match("logs://api?level=error&since=5m&utm=x&since=6m") == {"service": "api", "since": "5m", "level": "error"}
        assert template.match("logs://api?q=a+b") == {"service": "api"}
        assert URITemplate("s://x{?q}").match("s://x?q=a+b%2Bc") == {"q": "a+b+c"}  # RFC 3986: + is not a space
        assert template.match("logs://api/v2?level=error") is None

    def test_labels_and_path_parameters(self) -> None:
        assert URITemplate("doc://{name}{.ext}").match("doc://notes.tar.gz") == {"name": "notes.tar", "ext": "gz"}
        assert URITemplate("doc://{name}{.ext}").match("doc://notes") is None
        assert URITemplate("map{;x,y}").match("map;x=1;y=2") == {"x": "1", "y": "2"}
        assert URITemplate("map{;x,y}").match("map;y=2;x=1") is None  # only the query is read in any order

    def test_a_literal_uri_matches_only_itself(self) -> None:
        template = URITemplate("config://app")
        assert (template.is_template(), template.variable_names) == (False, [])
        assert template.match("config://app") == {}
        assert template.match("config://app2") is None

    def test_forms_matching_cannot_read_back_are_refused(self) -> None:
        for form in ["{var:3}", "{?list*}", "{;list*}", "{list*}", "{/a*,b}", "{x}/{x}"]:
            template = URITemplate(form)
            template.expand(VARIABLES)  # still expands
            with pytest.raises(URITemplateError):
                template.match("anything")


class TestParsing:
    def test_variable_names_in_order_each_once(self) -> None:
        assert URITemplate("a{/x,y}{?y,z*}{#w:2}").variable_names == ["x", "y", "z", "w"]

    @pytest.mark.parametrize("template", ["{", "a}b", "{}", "{a{b}}", "{=a}", "{|a}", "{a b}", "{a:0}", "{a:10000}", "{a.}", "{+}"])
    def test_malformed_templates_are_refused_naming_the_problem(self, template: str) -> None:
        with pytest.raises(URITemplateError) as raised:
            URITemplate(template)
        assert isinstance(raised.value, MCPError) and isinstance(raised.value, ValueError)
        assert repr(template) in str(raised.value)

    def test_a_prefix_on_a_list_is_an_error_when_expanding(self) -> None:
        with pytest.raises(URITemplateError, match="prefix modifier"):
            URITemplate("{list:3}").expand(VARIABLES)
