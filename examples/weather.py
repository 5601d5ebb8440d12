from mcp_sdk import Server
from mcp_sdk.server.transports import StdioTransport

server = Server(name="weather")


@server.tool
def get_alerts(state: str) -> str:
    """Get weather alerts for a US state (two-letter code, e.g. CA)."""
    alerts = {"CA": "Heat advisory until 8 PM", "TX": "Flood watch"}
    return alerts.get(state.upper(), f"No active alerts for {state}")


@server.tool
def get_forecast(latitude: float, longitude: float) -> str:
    """Get the weather forecast for a location."""
    return f"Forecast for {latitude}, {longitude}: sunny, 22°C, light wind"


if __name__ == "__main__":
    StdioTransport(server).open()
