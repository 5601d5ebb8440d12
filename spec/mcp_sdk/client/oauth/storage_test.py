from __future__ import annotations

from mcp_sdk.client.oauth import InMemoryStorage, Storage


def test_round_trip_and_clear():
    storage = InMemoryStorage()
    assert storage.tokens() is None and storage.client_information() is None
    storage.save_tokens({"access_token": "a", "refresh_token": "r"})
    storage.save_client_information({"client_id": "c", "client_secret": "s"})
    assert storage.tokens() == {"access_token": "a", "refresh_token": "r"}
    assert storage.client_information() == {"client_id": "c", "client_secret": "s"}
    storage.save_tokens(None)
    assert storage.tokens() is None


def test_values_are_copied():
    storage = InMemoryStorage()
    tokens = {"access_token": "a", "nested": {"x": 1}}
    storage.save_tokens(tokens)
    tokens["access_token"] = "changed"
    storage.tokens()["nested"]["x"] = 2
    assert storage.tokens() == {"access_token": "a", "nested": {"x": 1}}


def test_repr_hides_values():
    storage = InMemoryStorage()
    storage.save_tokens({"access_token": "TOKEN-VALUE"})
    storage.save_client_information({"client_id": "c", "client_secret": "SECRET-VALUE"})
    assert repr(storage) == "<InMemoryStorage tokens=set client_information=set>"


def test_protocol():
    class FileLike:
        def tokens(self):
            return None

        def save_tokens(self, tokens):
            pass

        def client_information(self):
            return None

        def save_client_information(self, info):
            pass

    assert isinstance(InMemoryStorage(), Storage)
    assert isinstance(FileLike(), Storage)
    assert not isinstance(object(), Storage)
