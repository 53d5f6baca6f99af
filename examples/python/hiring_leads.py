"""A client for the hiring-leads MCP server over plain HTTP: `requests` and JSON-RPC, no MCP SDK.

Each tool call is one POST to the /mcp endpoint; no session or `initialize` is needed. A tool that
fails answers a result with `isError` and `{"error": {"code", "message", "details"}}` in its text.
`rate_limited` is retried after `details.retry_after_seconds`, and `unavailable` (a backend down
for a moment; nothing was charged) after a short pause; every other error is raised as ToolError,
`quota_exceeded` among them: a daily quota comes back only at `details.resets_at`.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

import requests

# Pauses before retrying `unavailable`, one per retry.
UNAVAILABLE_PAUSES_SECONDS = (1, 2, 4)


class ToolError(Exception):
    """A tool answered an error: `code` (e.g. "quota_exceeded"), `message` and `details`."""

    def __init__(self, tool: str, error: dict[str, Any]) -> None:
        self.tool = tool
        self.code: str = error["code"]
        self.message: str = error["message"]
        self.details: dict[str, Any] = error.get("details", {})
        super().__init__(f"{tool}: {self.code}: {self.message}")


class HiringLeads:
    """Calls the server's tools. `log` gets a line for every wait before a retry."""

    def __init__(
        self,
        url: str,
        api_key: str,
        *,
        max_rate_limit_retries: int = 5,
        log: TextIO = sys.stderr,
        timeout_seconds: float = 30,
    ) -> None:
        self.url = url
        self.max_rate_limit_retries = max_rate_limit_retries
        self.log = log
        self.timeout_seconds = timeout_seconds
        self.http = requests.Session()
        self.http.headers.update({"Authorization": f"Bearer {api_key}", "Accept": "application/json"})
        self.request_id = 0

    def call_tool(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """The tool's result object (`structuredContent`), after any retries; ToolError otherwise."""
        rate_limit_retries = 0
        unavailable_pauses = list(UNAVAILABLE_PAUSES_SECONDS)
        while True:
            try:
                return self._call_once(name, arguments or {})
            except ToolError as error:
                if error.code == "rate_limited" and rate_limit_retries < self.max_rate_limit_retries:
                    rate_limit_retries += 1
                    wait = error.details["retry_after_seconds"]
                elif error.code == "unavailable" and unavailable_pauses:
                    wait = unavailable_pauses.pop(0)
                else:
                    raise
                print(f"{name}: {error.code}, retrying in {wait} s", file=self.log, flush=True)
                time.sleep(wait)

    def pages(self, name: str, arguments: dict[str, Any], max_pages: int) -> Iterator[dict[str, Any]]:
        """Up to `max_pages` pages of a search, following `next_cursor` with the same arguments."""
        cursor = None
        for _ in range(max_pages):
            page = self.call_tool(name, {**arguments, **({"cursor": cursor} if cursor else {})})
            yield page
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def _call_once(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.request_id += 1
        request = {
            "jsonrpc": "2.0",
            "id": self.request_id,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }
        response = self.http.post(self.url, json=request, timeout=self.timeout_seconds)
        if response.status_code != 200:
            # Refusals before any tool runs (a bad key: 401) say why in `error_description`.
            raise RuntimeError(f"{name}: HTTP {response.status_code}: {response.text[:500]}")
        answer = response.json()
        if "error" in answer:
            raise RuntimeError(f"{name}: JSON-RPC error {answer['error']['code']}: {answer['error']['message']}")
        result = answer["result"]
        if result.get("isError"):
            raise ToolError(name, json.loads(result["content"][0]["text"])["error"])
        return result["structuredContent"]
