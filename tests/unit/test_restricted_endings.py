"""A restriction on an ending or a switch restricts what ends (Quirk et al. 1985 §10.63 on
words negative in meaning, §§10.64–10.66 on focus; FrameNet Activity_stop and Replacing):
"stopped smoking at parties" leaves smoking elsewhere standing, "moved from Trello to Jira at
the office" leaves Trello at home. The date of the change ("in June", "last spring") and a
duration ("for good") restrict nothing. Pairs are scanned as two memories of one user, a day
apart (:func:`tests.unit.test_state_changes.pair_tables`)."""

from tests.unit.test_state_changes import pair_tables

ENDINGS_RESOLVED = [
    ("I smoke cigars.", "I stopped smoking cigars."),
    ("Tomas eats sugar.", "Tomas gave up sugar in June."),
    ("I drink soda.", "I quit soda for good."),
    ("I drink wine.", "I've cut out wine."),
    ("Lena eats chocolate.", "Lena quit chocolate last spring."),
    ("I drink beer.", "I stopped drinking beer after my surgery."),
    ("I smoke.", "I quit smoking completely."),
]
"""An ending with its date, its occasion or its duration: the later memory wins."""

ENDINGS_RESTRICTED = [
    ("I smoke cigars.", "I stopped smoking cigars except at weddings."),
    ("I smoke cigars.", "I stopped smoking cigars, apart from at weddings."),
    ("Tomas eats sugar.", "Tomas gave up sugar, except at birthdays."),
    ("I drink soda.", "I quit soda at lunch."),
    ("I drink wine.", "I've stopped drinking wine on weeknights."),
    ("I drink wine.", "I quit drinking wine during the working week."),
    ("Lena eats chocolate.", "Lena cut out chocolate on Tuesdays."),
    ("I take the tram to school.", "I quit taking the tram on snowy days."),
    ("I drink beer.", "I stopped drinking beer after 9pm."),
    ("I drink beer.", "I stopped drinking beer at night."),
    ("I eat cheese.", "I've mostly given up cheese."),
    ("I drink beer.", "I stopped drinking beer in the evenings."),
]
"""An ending restricted to some times or with an exception: nothing decided."""

SWITCHES_RESOLVED = [
    ("I use Trello.", "I switched from Trello to Jira."),
    ("I drink milk.", "I switched from milk to oat milk last week."),
    ("I use Dropbox.", "I moved from Dropbox to iCloud in May."),
]
"""A plain switch, or one dated: the later memory wins."""

SWITCHES_RESTRICTED = [
    ("I use Trello.", "I switched from Trello to Jira at the office, for some clients."),
    ("I use Trello.", "I switched from Trello to Jira for certain clients."),
    ("I use Trello.", "I switched from Trello to Jira for work only."),
    ("I use Dropbox.", "I moved from Dropbox to iCloud at home."),
    ("I drink milk.", "I switched from milk to oat milk in the mornings."),
    ("I drink milk.", "I switched from milk to oat milk before bedtime."),
    ("I drink milk.", "I changed from milk to oat milk on weekdays."),
]
"""A switch for some part of the domain or of the day: the old value stays elsewhere."""

test_ending_resolves, test_restricted_ending_decides_nothing = pair_tables(
    ENDINGS_RESOLVED, ENDINGS_RESTRICTED)
test_switch_resolves, test_restricted_switch_decides_nothing = pair_tables(
    SWITCHES_RESOLVED, SWITCHES_RESTRICTED)
