// MQTT topic names and filters (MQTT 3.1.1 §4.7, MQTT 5 §4.7): levels split by `/`, `+` matches
// one level, `#` (last, alone in its level) matches the level before it and everything below, and
// a filter starting with a wildcard does not match topics starting with `$`.

/** Whether a device may publish to this topic name: not empty, no wildcard, no NUL. */
export function isTopicName(topic: string): boolean {
  return topic.length > 0 && !/[+#\0]/.test(topic);
}

/** Whether this is a well-formed topic filter. */
export function isTopicFilter(filter: string): boolean {
  if (filter.length === 0 || filter.includes('\0')) return false;
  const levels = filter.split('/');
  return levels.every((level, index) => {
    if (level === '#') return index === levels.length - 1;
    return level === '+' || !/[+#]/.test(level);
  });
}

/** Whether a message published to `topic` reaches a subscription to `filter`. */
export function topicMatches(filter: string, topic: string): boolean {
  if (topic.startsWith('$') && (filter.startsWith('+') || filter.startsWith('#'))) return false;
  const filterLevels = filter.split('/');
  const topicLevels = topic.split('/');
  for (let index = 0; index < filterLevels.length; index++) {
    const level = filterLevels[index];
    if (level === '#') return index === filterLevels.length - 1;
    if (index >= topicLevels.length) return false;
    if (level !== '+' && level !== topicLevels[index]) return false;
  }
  return filterLevels.length === topicLevels.length;
}
