"""A chart of median salary by city and of open roles and salaries by posted month, as a PNG.

    export HIRING_LEADS_URL=http://localhost:3000/mcp HIRING_LEADS_API_KEY=hl_live_...
    python salary_chart.py --title engineer --output salary-by-city.png

Two `get_market_insights` calls (two insight queries) over plain HTTP: `group_by: city` and
`group_by: posted_month`, both with `metric: salary`. Salaries are annualised midpoints of the roles
that state one, converted to one currency; the bars span the middle half (p25 to p75).
"""

from __future__ import annotations

from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, no display needed

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import FuncFormatter  # noqa: E402

from connection import argument_parser, parse_connection  # noqa: E402
from hiring_leads import HiringLeads  # noqa: E402


def insights(client: HiringLeads, group_by: str, limit: int, currency: str, filters: dict[str, Any]) -> dict[str, Any]:
    return client.call_tool(
        "get_market_insights",
        {"group_by": group_by, "metric": "salary", "currency": currency, "limit": limit, "filters": filters},
    )


THOUSANDS = FuncFormatter(lambda value, _: f"{value / 1000:,.0f}k")


def draw(by_city: dict[str, Any], by_month: dict[str, Any], currency: str, subject: str, output: str) -> tuple[int, int]:
    """Draws both panels into `output`; returns the image's width and height in pixels."""
    cities = [row for row in by_city["rows"] if row["salary"]["median"] is not None][::-1]  # largest on top
    months = by_month["rows"]
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8), dpi=100, gridspec_kw={"width_ratios": [1, 1.2]})
    figure.suptitle(f"{subject}: salaries in {currency}", fontsize=13)

    medians = [row["salary"]["median"] for row in cities]
    spread = [
        [row["salary"]["median"] - row["salary"]["p25"] for row in cities],
        [row["salary"]["p75"] - row["salary"]["median"] for row in cities],
    ]
    left.barh([row["label"] for row in cities], medians, xerr=spread, color="#4c78a8", ecolor="#9ab", capsize=3)
    for position, row in enumerate(cities):
        left.text(max(medians) * 0.02, position, f"{row['count']} roles", va="center", color="white", fontsize=8)
    left.set_title("Median salary by city (lines: p25 to p75)", fontsize=10)
    left.xaxis.set_major_formatter(THOUSANDS)

    labels = [row["key"] for row in months]
    right.bar(labels, [row["count"] for row in months], color="#b8c9dc", label="roles posted")
    right.set_ylabel("open roles posted")
    right.set_title("By posted month (the last one so far)", fontsize=10)
    right.tick_params(axis="x", labelrotation=45, labelsize=8)
    salary_axis = right.twinx()
    salary_axis.plot(labels, [row["salary"]["median"] for row in months], color="#e45756", marker="o", label="median salary")
    salary_axis.yaxis.set_major_formatter(THOUSANDS)
    salary_axis.set_ylabel("median salary")
    handles = right.get_legend_handles_labels()[0] + salary_axis.get_legend_handles_labels()[0]
    right.legend(handles, [handle.get_label() for handle in handles], loc="upper left", fontsize=8)

    figure.tight_layout()
    figure.savefig(output)
    width, height = figure.get_size_inches() * figure.dpi
    plt.close(figure)
    return round(width), round(height)


def main() -> None:
    parser = argument_parser(__doc__.splitlines()[0])
    parser.add_argument("--title", help="only roles whose title has these words, e.g. engineer")
    parser.add_argument("--location", help="only roles in this city, region or country")
    parser.add_argument("--currency", default="GBP", choices=["GBP", "EUR", "USD"], help="default GBP")
    parser.add_argument("--cities", type=int, default=10, help="cities with the most roles, 1 to 50 (default 10)")
    parser.add_argument("--months", type=int, default=12, help="most recent months, 1 to 50 (default 12)")
    parser.add_argument("--output", default="salary-by-city.png", help="the PNG to write (default salary-by-city.png)")
    arguments = parse_connection(parser)
    filters = {name: value for name, value in (("title", arguments.title), ("location", arguments.location)) if value}

    client = HiringLeads(arguments.url, arguments.api_key)
    by_city = insights(client, "city", arguments.cities, arguments.currency, filters)
    by_month = insights(client, "posted_month", arguments.months, arguments.currency, filters)
    for row in by_city["rows"]:
        print(f"city {row['label']}: {row['count']} roles, median {row['salary']['median']}")
    for row in by_month["rows"]:
        print(f"month {row['key']}: {row['count']} roles, median {row['salary']['median']}")

    subject = " ".join(filter(None, [arguments.title and f'"{arguments.title}" roles', arguments.location])) or "All open roles"
    width, height = draw(by_city, by_month, arguments.currency, subject, arguments.output)
    print(f"Wrote {arguments.output} ({width}x{height} pixels).")


if __name__ == "__main__":
    main()
