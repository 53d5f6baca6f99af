"""Salaries by city, then the matching open roles page by page, over plain HTTP (no MCP SDK).

    export HIRING_LEADS_URL=http://localhost:3000/mcp HIRING_LEADS_API_KEY=hl_live_...
    python market_report.py --title engineer --location UK --page-size 10 --max-pages 3

One insight query, then one lead explore per lead listed. When a daily quota runs out the report
stops there and says when it resets; a call over the per-minute limit waits as told and goes on.
"""

from __future__ import annotations

from typing import Any

from connection import add_lead_filters, argument_parser, lead_filters, parse_connection
from hiring_leads import HiringLeads, ToolError


def money(value: float | None, currency: str) -> str:
    return "n/a" if value is None else f"{currency} {value:,.0f}"


def quota_stop(error: ToolError) -> str:
    return f"Stopped: the daily {error.details['quota']} quota is used up; it resets at {error.details['resets_at']}."


def print_salaries_by_city(client: HiringLeads, filters: dict[str, Any]) -> None:
    insights = client.call_tool(
        "get_market_insights", {"group_by": "city", "metric": "salary", "limit": 5, "filters": filters}
    )
    print(f"Top cities of {insights['total']} open roles, by number of roles:")
    for row in insights["rows"]:
        salary = row["salary"]
        print(
            f"  {row['label']:<28} {row['count']:>6} roles  median {money(salary['median'], salary['currency'])}"
            f"  ({salary['sample_size']} with a salary)"
        )


def print_leads(client: HiringLeads, filters: dict[str, Any], page_size: int, max_pages: int) -> None:
    listed = 0
    pages = 0
    try:
        for page in client.pages("search_leads", {**filters, "page_size": page_size}, max_pages):
            pages += 1
            if pages == 1:
                print(f"\n{page['total']} open roles match; newest first:")
            for lead in page["leads"]:
                listed += 1
                salary = lead["salary"]["display"] if lead["salary"] else "salary not given"
                print(
                    f"  {lead['id']}  {lead['posted_date']}  {lead['title']} at {lead['company']['name']}, "
                    f"{lead['location']} ({salary})"
                )
            for note in page["notes"]:
                print(f"  note: {note}")
    except ToolError as error:
        if error.code != "quota_exceeded":
            raise
        print(quota_stop(error))
    print(f"{listed} leads on {pages} pages.")


def main() -> None:
    parser = argument_parser(__doc__.splitlines()[0])
    add_lead_filters(parser, "London or UK")
    parser.add_argument("--page-size", type=int, default=10, help="leads per page, 1 to 25 (default 10)")
    parser.add_argument("--max-pages", type=int, default=3, help="pages at most (default 3)")
    arguments = parse_connection(parser)
    filters = lead_filters(arguments)

    client = HiringLeads(arguments.url, arguments.api_key)
    try:
        print_salaries_by_city(client, filters)
    except ToolError as error:
        if error.code != "quota_exceeded":
            raise
        print(quota_stop(error))
    print_leads(client, filters, arguments.page_size, arguments.max_pages)


if __name__ == "__main__":
    main()
