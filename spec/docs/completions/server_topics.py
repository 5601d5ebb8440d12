'''Completions of the fragments of the server topic pages and the common-mistakes how-to
(docs/topics/protocol-eras.md, configuration.md, composition.md, tasks.md,
docs/howto/common-mistakes.md); see spec/docs/blocks.py.
'''

from __future__ import annotations

# The optional packages, hidden as if they were not installed: ``import redis`` (and the others)
# then raises ImportError, which the SDK turns into MissingExtraError naming the extra.
_WITHOUT_EXTRAS = """
import sys
for _name in ("redis", "jwt", "cryptography", "opentelemetry", "yaml", "flask", "django"):
    sys.modules[_name] = None
"""

COMPLETIONS: dict[str, tuple[str, str]] = {
    "srv-missing-extras": (
        _WITHOUT_EXTRAS,
        # The block's last mistake was made: its message names the extra.
        """
assert message == "mcp_sdk.contrib.django needs Django: pip install 'mcp_sdk[django]'"
""",
    ),
}
