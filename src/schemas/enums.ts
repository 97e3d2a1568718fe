// The enumerations of SPEC §3, shared by the schemas, the server and the web app.
export const KPI_AGGREGATIONS = ['avg', 'max', 'min', 'sum', 'value_count', 'latest-value'] as const;
export const SCHEDULER_AGGREGATIONS = ['avg', 'complex-query', 'latest-value', 'max', 'min', 'static-value', 'sum'] as const;
export const SCHEDULER_TIME_SLOTS = ['last-week', 'last-month', 'last-year'] as const;
export const SCHEDULER_KINDS = ['single', 'periodic'] as const;
export const WATCHER_CONDITIONS = ['>', '>=', '<', '<=', 'between', '==', '!='] as const;
export const THRESHOLD_KINDS = ['boolean', 'null', 'number', 'string', 'date', 'now'] as const;
/** What a KPI's one comparison series reads (SPEC §5): none, the range before, N units before, or from a date. */
export const COMPARE_SHIFTS = ['none', 'previous', 'days', 'weeks', 'months', 'years', 'date'] as const;
/**
 * A KPI's quick time ranges (`definition.time_range`): rolling ones end now (`6M` is six calendar
 * months, `1y` 365 days); calendar ones are whole days, weeks (from Monday), months and years in
 * the answer's time zone.
 */
export const ROLLING_TIME_RANGES = ['15m', '30m', '1h', '2h', '5h', '12h', '24h', '7d', '30d', '60d', '90d', '6M', '1y'] as const;
export const CALENDAR_TIME_RANGES = ['today', 'yesterday', 'this_week', 'last_week', 'this_month', 'last_month', 'this_year', 'last_year'] as const;
export const CHART_TYPES = ['bar', 'stacked-bar', 'horizontal-bar', 'line', 'pie', 'donut', 'gauge', 'data-table', 'time-scale'] as const;
export const PROFILE_TYPES = ['dimming_profile', 'switching_profile'] as const;
/** What an end of a profile interval is: a fixed time of day, or the day's sunset or sunrise (plus an offset). */
export const INTERVAL_EVENTS = ['time', 'sunset', 'sunrise'] as const;
export const LOG_TYPES = ['debug', 'informational', 'notice', 'warning', 'error', 'alert', 'emergency', 'critical'] as const;
export const LOG_STATUSES = ['new', 'seen', 'done'] as const;
export const COMPONENT_TYPES = ['iframe', 'image', 'kpi', 'richtext', 'video'] as const;
export const SHARE_SCOPES = ['view', 'edit'] as const;
/** What a board's reader may do with it (a board answer's `scopes`): its owner, or a share's scopes. */
export const BOARD_SCOPES = ['owner', 'edit', 'view'] as const;
/** The kinds of board (each its own models and module): performance boards and public-API boards. */
export const BOARD_KIND_NAMES = ['performance', 'public_api'] as const;
export type BoardKindName = (typeof BOARD_KIND_NAMES)[number];
export const WATCHER_SEVERITIES = ['notice', 'warning', 'error', 'critical'] as const;
export const NOTIFICATION_CHANNELS = ['email', 'in_app'] as const;
export const LOG_SOURCES = ['watcher', 'scheduler', 'entity', 'profile', 'system'] as const;
export const SCHEDULER_RESULTS = ['ok', 'nok'] as const;
/**
 * Maintenance modes (a user may start those of the token's `maintenance_modes`): nothing is sent,
 * nothing is written, or the covered devices are left out of alarms and KPIs.
 */
export const MAINTENANCE_MODES = ['notify-off', 'read-only', 'device-maintenance'] as const;
/** What a maintenance window covers: the whole tenant, a region (or zone) and what lies in it, or a group's entities. */
export const MAINTENANCE_SCOPES = ['tenant', 'region', 'group'] as const;
export const MAINTENANCE_SCHEDULE_KINDS = ['once', 'recurring'] as const;
