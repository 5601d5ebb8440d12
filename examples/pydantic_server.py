"""Pydantic models in tools, prompts and elicitation (``pip install 'mcp_sdk[pydantic]'``).

    python examples/pydantic_server.py                 # stdio
    python examples/pydantic_server.py --port 8000     # Streamable HTTP at http://127.0.0.1:8000/mcp

Models (and ``Annotated[..., Field(...)]``) give the input and output schemas; arguments arrive
as validated model instances, returned models become ``structuredContent``, and a model's own
validators answer the tool's ``isError`` result naming the field.
"""

from __future__ import annotations

import argparse
import enum
import sys
import typing as t

from pydantic import BaseModel, Field, field_validator

from mcp_sdk import Prompt, Server, Tool
from mcp_sdk.server.transports import StdioTransport, StreamableHTTPTransport


class Address(BaseModel):
    city: str
    country: str = "CH"


class User(BaseModel):
    name: str = Field(description="Full name", min_length=1)
    age: int = Field(ge=0, le=150)
    address: Address | None = None

    @field_validator("name")
    @classmethod
    def not_reserved(cls, name: str) -> str:
        if name.lower() == "root":
            raise ValueError("'root' is reserved")
        return name


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Preferences(BaseModel):
    nickname: str = Field(description="What to call you")
    color: Color = Color.BLUE
    newsletter: bool = False


class ReviewOptions(BaseModel):
    style: t.Literal["short", "detailed"] = "short"
    max_points: int = Field(3, ge=1, le=10)


class CreateUser(Tool):
    """The class API: the input schema is the model, and ``call`` gets the validated instance."""

    description = "Create a user"
    input_schema = User
    output_schema = User

    @classmethod
    def call(cls, user: User) -> User:
        return user.model_copy(update={"name": user.name.title()})


class Summary(Prompt):
    """The class API for prompts: ``arguments`` is a model, ``template`` gets the instance."""

    description = "Summarize a topic"
    arguments = ReviewOptions

    @classmethod
    def template(cls, args: ReviewOptions) -> Prompt.Result:
        text = f"Summarize in {args.max_points} {args.style} points."
        return Prompt.Result(messages=[Prompt.Message(role="user", content={"type": "text", "text": text})])


def build_server() -> Server:
    """The example server (a new one each call: tests start several)."""
    server = Server(name="pydantic_example", version="1.0.0", tools=[CreateUser], prompts=[Summary])

    @server.tool
    def greet(user: User, times: t.Annotated[int, Field(ge=1, le=3, description="How often")] = 1) -> str:
        """Greet a user."""
        where = f" from {user.address.city}" if user.address else ""
        return " ".join([f"Hello {user.name}{where}!"] * times)

    @server.tool
    def oldest(users: list[User]) -> User:
        """The oldest of some users."""
        return max(users, key=lambda user: user.age)

    @server.tool
    def adults(users: list[User]) -> list[User]:
        """The users of age."""
        return [user for user in users if user.age >= 18]

    @server.tool
    def ask_preferences(server_context: t.Any) -> str:
        """Ask the user for their preferences."""
        answer = server_context.elicit("Your preferences?", schema=Preferences)
        if not answer.accepted:
            return f"no preferences ({answer.action})"
        prefs: Preferences = answer.data
        return f"{type(prefs).__name__}: {prefs.nickname} likes {prefs.color.value}, newsletter={prefs.newsletter}"

    @server.prompt
    def review(code: str, options: ReviewOptions) -> str:
        """Review some code."""
        return f"Review ({options.style}, at most {options.max_points} points): {code}"

    return server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, help="serve Streamable HTTP on this port (default: stdio)")
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)
    server = build_server()
    if args.port is None:
        StdioTransport(server).open()
        return
    from werkzeug.serving import make_server

    transport = StreamableHTTPTransport(server, wsgi_threads=32)
    httpd = make_server(args.host, args.port, transport, threaded=True)
    print(f"MCP server on http://{args.host}:{httpd.server_port}/mcp", file=sys.stderr, flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        transport.close()
        httpd.server_close()


if __name__ == "__main__":
    main()
