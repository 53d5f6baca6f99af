"""The account's quotas and the newest matching roles, through the Python MCP SDK (`mcp`).

    export HIRING_LEADS_URL=http://localhost:3000/mcp HIRING_LEADS_API_KEY=hl_live_...
    python mcp_sdk_report.py --title engineer --location Berlin

The SDK speaks MCP over Streamable HTTP; the API key goes in the Authorization header of the HTTP
client it is given. A tool that fails answers a result with `is_error` and the error as JSON text.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from connection import add_lead_filters, argument_parser, lead_filters, parse_connection


async def call(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    """The tool's result object, or None after printing its error."""
    result = await client.call_tool(name, arguments)
    if result.is_error:
        error = json.loads(result.content[0].text)["error"]
        print(f"{name} failed: {error['code']}: {error['message']}")
        return None
    return result.structured_content


async def report(url: str, api_key: str, filters: dict[str, Any], page_size: int) -> None:
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {api_key}"}) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            info = client.server_info
            print(f"Connected to {info.name} {info.version}")
            tools = await client.list_tools()
            print(f"{len(tools.tools)} tools: {', '.join(tool.name for tool in tools.tools)}")

            usage = await call(client, "get_account_usage", {})
            if usage is not None:
                print(f"Plan {usage['plan']} ({usage['subscription_status']}), {usage['calls_per_minute']} calls a minute")
                for quota, state in usage["daily_quotas"].items():
                    left = "unlimited" if state["remaining"] is None else f"{state['remaining']} left"
                    print(f"  {quota}: {state['used']} used, {left}")

            page = await call(client, "search_leads", {**filters, "page_size": page_size})
            if page is not None:
                print(f"{page['total']} open roles match; the newest {page['returned']}:")
                for lead in page["leads"]:
                    print(f"  {lead['id']}  {lead['posted_date']}  {lead['title']} at {lead['company']['name']}")


def main() -> None:
    parser = argument_parser(__doc__.splitlines()[0])
    add_lead_filters(parser, "Berlin or DE")
    parser.add_argument("--page-size", type=int, default=5, help="leads to list, 1 to 25 (default 5)")
    arguments = parse_connection(parser)
    filters = lead_filters(arguments)
    asyncio.run(report(arguments.url, arguments.api_key, filters, arguments.page_size))


if __name__ == "__main__":
    main()
