"""The core never imports LangChain; the middleware modules say how to install it.

Each check runs in a fresh interpreter, since this test session may already
have imported LangChain.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]

LOADED_FRAMEWORKS = """
import sys
loaded = sorted(
    name for name in sys.modules
    if name.split(".")[0] in {"langchain", "langchain_core", "langgraph"}
)
print(loaded)
"""

# `None` in sys.modules makes an import fail the way a missing package does.
WITHOUT_LANGCHAIN = """
import sys
for name in ("langchain", "langchain_core", "langgraph"):
    sys.modules[name] = None
"""


def run_python(source: str) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPOSITORY), environment.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-c", source],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )


def test_importing_and_using_the_core_and_the_hook_loads_no_agent_framework() -> None:
    completed = run_python(
        "import audit, audit.hooks, authz\n"
        "audit.hooks.before_tool_call('bash', {'command': 'sudo ls'})\n"
        "authz.evaluate_tool_call(\n"
        "    authz.GuardrailAuthorizationAdapter(authz.RbacProvider({'roles': {'user': {'tools': '*'}}})),\n"
        "    'bash', 'call-1', {'command': 'ls'}, {},\n"
        ")\n" + LOADED_FRAMEWORKS
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "[]"


def test_the_check_above_would_see_langchain_if_it_were_loaded() -> None:
    pytest.importorskip("langchain")
    completed = run_python("import audit.middleware\n" + LOADED_FRAMEWORKS)
    assert completed.returncode == 0, completed.stderr
    assert "'langchain'" in completed.stdout


@pytest.mark.parametrize("module", ["audit.middleware", "authz.middleware"])
def test_importing_a_middleware_without_langchain_says_how_to_install_it(module: str) -> None:
    completed = run_python(
        WITHOUT_LANGCHAIN
        + f"""
try:
    import {module}
except ImportError as error:
    print(type(error).__name__, error)
"""
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.startswith("ImportError The agent middleware needs LangChain")
    assert "pip install 'agent-shell-guard[langchain]'" in completed.stdout


def test_the_core_still_works_without_langchain() -> None:
    completed = run_python(
        WITHOUT_LANGCHAIN
        + "import audit.hooks, authz\n"
        + "print(audit.hooks.before_tool_call('bash', {'command': 'rm -rf /'}).decision.value)\n"
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "block"


def test_the_guardrail_middleware_needs_neither_the_audit_middleware_nor_the_audit_engine() -> None:
    """Issue 12: the LangChain glue the middlewares share lives in audit.integrations.langchain, not audit.middleware."""
    pytest.importorskip("langchain")
    completed = run_python(
        "import sys\nimport authz.middleware\n"
        "print(sorted(name for name in sys.modules if name == 'audit' or name.startswith('audit.')))\n"
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "['audit', 'audit._lazy', 'audit.integrations', 'audit.integrations.langchain']"


def test_the_shared_glue_is_still_importable_from_audit_middleware() -> None:
    pytest.importorskip("langchain")
    completed = run_python(
        "import audit.middleware, audit.integrations.langchain as glue\n"
        "print(audit.middleware.ToolCallGateMiddleware is glue.ToolCallGateMiddleware,"
        " audit.middleware.append_warning is glue.append_warning)\n"
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "True True"
