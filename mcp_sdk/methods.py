"""MCP method names, as constants."""

INITIALIZE = "initialize"
PING = "ping"
LOGGING_SET_LEVEL = "logging/setLevel"
TOOLS_LIST = "tools/list"
TOOLS_CALL = "tools/call"
PROMPTS_LIST = "prompts/list"
PROMPTS_GET = "prompts/get"
RESOURCES_LIST = "resources/list"
RESOURCES_READ = "resources/read"
RESOURCES_TEMPLATES_LIST = "resources/templates/list"
RESOURCES_SUBSCRIBE = "resources/subscribe"
RESOURCES_UNSUBSCRIBE = "resources/unsubscribe"
COMPLETION_COMPLETE = "completion/complete"

# Server-to-client requests.
ROOTS_LIST = "roots/list"
SAMPLING_CREATE_MESSAGE = "sampling/createMessage"
ELICITATION_CREATE = "elicitation/create"

# Notifications.
NOTIFICATIONS_INITIALIZED = "notifications/initialized"
NOTIFICATIONS_CANCELLED = "notifications/cancelled"
NOTIFICATIONS_PROGRESS = "notifications/progress"
NOTIFICATIONS_MESSAGE = "notifications/message"
NOTIFICATIONS_ROOTS_LIST_CHANGED = "notifications/roots/list_changed"
NOTIFICATIONS_TOOLS_LIST_CHANGED = "notifications/tools/list_changed"
NOTIFICATIONS_PROMPTS_LIST_CHANGED = "notifications/prompts/list_changed"
NOTIFICATIONS_RESOURCES_LIST_CHANGED = "notifications/resources/list_changed"
NOTIFICATIONS_RESOURCES_UPDATED = "notifications/resources/updated"
NOTIFICATIONS_ELICITATION_COMPLETE = "notifications/elicitation/complete"

#: The eight log levels of ``logging/setLevel``, least severe first (RFC 5424).
LOG_LEVELS: tuple[str, ...] = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
#: Severity of each level, for filtering.
LOG_SEVERITY = {level: index for index, level in enumerate(LOG_LEVELS)}

# 2026-07-28.
SERVER_DISCOVER = "server/discover"
SUBSCRIPTIONS_LISTEN = "subscriptions/listen"
# The tasks extension (io.modelcontextprotocol/tasks).
TASKS_GET = "tasks/get"
TASKS_UPDATE = "tasks/update"
TASKS_CANCEL = "tasks/cancel"
NOTIFICATIONS_TASKS = "notifications/tasks"
NOTIFICATIONS_SUBSCRIPTIONS_ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
