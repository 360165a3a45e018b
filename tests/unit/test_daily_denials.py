"""Times of day and seasons with the zero article ("at night", "in summer"; Quirk et al. 1985
§5.44) and the boundaries of a daily time ("after 8pm", "before lunch", §5.45 on meals) name a
recurring time: a denial under them says nothing of the rest of the day or year. A dated event
after "after" or "since" only times the change. Pairs are scanned as two memories of one user,
a day apart (:func:`tests.unit.test_state_changes.pair_tables`)."""

from tests.unit.test_state_changes import pair_tables

RESOLVED = [
    ("I jog.", "I don't jog anymore."),
    ("I drink tea.", "I no longer drink tea since my surgery."),
    ("I drink tea.", "I don't drink tea anymore after the scare last year."),
    ("Omar cycles to work.", "Omar doesn't cycle to work anymore since the accident."),
]
"""A whole denial with the time of its change: the later memory wins."""

RESTRICTED = [
    ("I jog.", "I don't jog at night anymore."),
    ("I jog.", "I don't jog in summer anymore."),
    ("I drink tea.", "I don't drink tea after supper anymore."),
    ("I drink tea.", "I no longer drink tea after 8pm."),
    ("I drink tea.", "I don't drink tea before breakfast anymore."),
    ("Omar cycles to work.", "Omar doesn't cycle to work in winter anymore."),
    ("I eat bread.", "I usually don't eat bread anymore."),
    ("I eat bread.", "I mostly don't eat bread these days."),
]
"""A denial under a recurring time of day or year, or hedged by a frequency adverb: the
earlier habit may still hold, nothing decided."""

test_whole_denial_resolves, test_daily_denial_decides_nothing = pair_tables(RESOLVED, RESTRICTED)
