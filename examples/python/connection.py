"""Where the server is and which API key to use: from the command line, else the environment.

Prefer the environment for the key: other users of a machine can read command lines.
"""

import argparse
import os

URL_VARIABLE = "HIRING_LEADS_URL"
KEY_VARIABLE = "HIRING_LEADS_API_KEY"


def argument_parser(description: str) -> argparse.ArgumentParser:
    """A parser with --url and --api-key, which default to HIRING_LEADS_URL and HIRING_LEADS_API_KEY."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--url", help=f"the MCP endpoint, e.g. http://localhost:3000/mcp (default: ${URL_VARIABLE})")
    parser.add_argument("--api-key", help=f"an API key, hl_live_... (default: ${KEY_VARIABLE})")
    return parser


def add_lead_filters(parser: argparse.ArgumentParser, location_example: str) -> None:
    """--title and --location, the filters the reports pass on to the tools."""
    parser.add_argument("--title", help="title keywords, e.g. engineer")
    parser.add_argument("--location", help=f"a city, region or country, e.g. {location_example}")


def lead_filters(arguments: argparse.Namespace) -> dict[str, str]:
    """The filters given on the command line, ready for the tools' arguments."""
    return {name: value for name in ("title", "location") if (value := getattr(arguments, name))}


def parse_connection(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """Parses the command line; stops with a message naming what is missing."""
    arguments = parser.parse_args()
    arguments.url = arguments.url or os.environ.get(URL_VARIABLE)
    arguments.api_key = arguments.api_key or os.environ.get(KEY_VARIABLE)
    if not arguments.url:
        parser.error(f"no server: pass --url or set {URL_VARIABLE}")
    if not arguments.api_key:
        parser.error(f"no API key: pass --api-key or set {KEY_VARIABLE}")
    return arguments
