"""Prompt: class-level metadata, Prompt.define, Server.define_prompt, required arguments."""

from __future__ import annotations

import pytest

from mcp_sdk import Content, Prompt, Server
from spec.support.server_helpers import request


class MyPrompt(Prompt):
    prompt_name = "my_prompt"
    title = "My Prompt"
    description = "This prompt performs specific functionality..."
    arguments = [Prompt.Argument(name="message", title="Message Title", description="Input message", required=True)]
    meta = {"version": "1.0", "category": "example"}

    @classmethod
    def template(cls, args, server_context=None):
        return Prompt.Result(
            description="Response description",
            messages=[
                Prompt.Message(role="user", content=Content.Text("User message")),
                Prompt.Message(role="assistant", content=Content.Text(args["message"])),
            ],
        )


EXPECTED_RESULT = {
    "description": "Response description",
    "messages": [
        {"role": "user", "content": {"type": "text", "text": "User message"}},
        {"role": "assistant", "content": {"type": "text", "text": "Hello"}},
    ],
}


class TestSubclass:
    def test_to_dict_is_the_prompts_list_entry(self):
        assert MyPrompt.to_dict() == {
            "name": "my_prompt",
            "title": "My Prompt",
            "description": "This prompt performs specific functionality...",
            "arguments": [{"name": "message", "title": "Message Title", "description": "Input message", "required": True}],
            "_meta": {"version": "1.0", "category": "example"},
        }

    def test_the_name_defaults_to_the_snake_case_class_name(self):
        class CodeReview(Prompt):
            pass

        assert CodeReview.prompt_name == "code_review"
        assert CodeReview.to_dict() == {"name": "code_review", "arguments": []}

    def test_metadata_is_inherited_but_the_name_is_derived_afresh(self):
        class LoudPrompt(MyPrompt):
            pass

        assert LoudPrompt.prompt_name == "loud_prompt"
        assert LoudPrompt.arguments == MyPrompt.arguments

    def test_arguments_may_be_dicts(self):
        class DictArgs(Prompt):
            arguments = [{"name": "code", "required": True}, {"name": "style"}]

        assert DictArgs.arguments == [Prompt.Argument(name="code", required=True), Prompt.Argument(name="style")]

    def test_arguments_of_another_type_are_refused(self):
        with pytest.raises(TypeError):

            class Wrong(Prompt):
                arguments = ["code"]

    def test_missing_arguments_names_the_required_ones_absent(self):
        class Two(Prompt):
            arguments = [Prompt.Argument(name="a", required=True), Prompt.Argument(name="b", required=True), Prompt.Argument(name="c")]

        assert Two.missing_arguments({}) == ["a", "b"]
        assert Two.missing_arguments({"a": "x", "b": None}) == ["b"]
        assert Two.missing_arguments({"a": "x", "b": "y"}) == []

    def test_prompts_are_never_instantiated(self):
        with pytest.raises(TypeError):
            MyPrompt()

    def test_served_through_prompts_get(self):
        response = Server(prompts=[MyPrompt]).handle(request("prompts/get", {"name": "my_prompt", "arguments": {"message": "Hello"}}))
        assert response == {"jsonrpc": "2.0", "id": 1, "result": EXPECTED_RESULT}

    def test_a_missing_required_argument_is_invalid_params_naming_it(self):
        response = Server(prompts=[MyPrompt]).handle(request("prompts/get", {"name": "my_prompt"}))
        assert response["error"] == {
            "code": -32602,
            "message": "Missing required arguments: message",
            "data": {"missing": ["message"]},
        }

    def test_a_template_without_server_context_gets_only_the_arguments(self):
        class Plain(Prompt):
            @classmethod
            def template(cls, args):
                return Prompt.Result(messages=[Prompt.Message(role="user", content=Content.Text(str(args)))])

        result = Server(prompts=[Plain], server_context={"x": 1}).handle(request("prompts/get", {"name": "plain"}))["result"]
        assert result == {"messages": [{"role": "user", "content": {"type": "text", "text": "{}"}}]}


class TestDefine:
    def handler(self, args, server_context=None):
        return MyPrompt.template(args)

    def test_define_with_a_handler(self):
        prompt = Prompt.define(
            name="my_prompt",
            title="My Prompt",
            description="This prompt performs specific functionality...",
            arguments=[Prompt.Argument(name="message", title="Message Title", description="Input message", required=True)],
            meta={"version": "1.0", "category": "example"},
            handler=self.handler,
        )
        assert issubclass(prompt, Prompt)
        assert prompt.to_dict() == MyPrompt.to_dict()
        response = Server(prompts=[prompt]).handle(request("prompts/get", {"name": "my_prompt", "arguments": {"message": "Hello"}}))
        assert response["result"] == EXPECTED_RESULT

    def test_define_as_a_decorator_named_after_the_function(self):
        @Prompt.define(arguments=[{"name": "message", "required": True}])
        def echo_prompt(args):
            return Prompt.Result(messages=[Prompt.Message(role="user", content=Content.Text(args["message"]))])

        assert echo_prompt.prompt_name == "echo_prompt"
        assert echo_prompt.arguments == [Prompt.Argument(name="message", required=True)]

    def test_icons_are_listed(self):
        prompt = Prompt.define(name="iconic", icons=[{"src": "https://example.com/p.png"}], handler=self.handler)
        assert prompt.to_dict() == {"name": "iconic", "arguments": [], "icons": [{"src": "https://example.com/p.png"}]}


class TestServerDefinePrompt:
    def test_define_prompt_registers_and_returns_the_function(self):
        server = Server()

        def my_prompt(args, server_context=None):
            return MyPrompt.template(args)

        assert server.define_prompt(name="my_prompt", arguments=[Prompt.Argument(name="message", required=True)])(my_prompt) is my_prompt
        response = server.handle(request("prompts/get", {"name": "my_prompt", "arguments": {"message": "Hello"}}))
        assert response["result"] == EXPECTED_RESULT
        assert server.handle(request("prompts/list"))["result"] == {
            "prompts": [{"name": "my_prompt", "arguments": [{"name": "message", "required": True}]}]
        }

    def test_define_prompt_with_a_taken_name_is_refused(self):
        from mcp_sdk import PromptNotUnique

        server = Server(prompts=[MyPrompt])
        with pytest.raises(PromptNotUnique):
            server.define_prompt(name="my_prompt", handler=self.handler_function)

    @staticmethod
    def handler_function(args):
        return Prompt.Result()
