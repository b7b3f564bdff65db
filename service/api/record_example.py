"""The example hand record of openapi.yaml: hand 2 of ``random_game("openapi-example")``.

A real hand, played by service/simulate.py's random policy and built by
domain/records.py's ``records_of_game``; a test checks that it still audits cleanly.
"""

from __future__ import annotations

from typing import Any

RECORD_EXAMPLE: dict[str, Any] = {'format': 'pitch-hand/v1',
 'rules': {'preset': 'team-auction', 'options': {}},
 'seats': 4,
 'sides': 2,
 'hand': 2,
 'deal': 2,
 'dealer': 1,
 'cards': [['TD', '8C', 'AC', '5H', 'KD', 'TS'], ['7S', '6D', 'TH', 'JC', '9D', '3C'],
           ['8H', '6C', '2C', 'QH', '3H', '2D'], ['3D', '4C', '8S', 'QC', 'KH', '8D']],
 'stock': ['JS', 'QS', 'KC', '4H', 'KS', '9H', '5C', '3S', 'JH', '7H', '4D', 'JD', 'AD', '6H', '7C',
           '6S', '2S', '5D', '2H', '9C', '5S', '4S', '9S', 'AS', '7D', 'TC', 'QD', 'AH'],
 'kitty': [],
 'actions': [{'seat': 2, 'type': 'pass'}, {'seat': 3, 'type': 'bid', 'amount': 3},
             {'seat': 0, 'type': 'bid', 'amount': 4}, {'seat': 1, 'type': 'pass'},
             {'seat': 0, 'type': 'declare', 'suit': 'D'}, {'seat': 0, 'type': 'play', 'card': 'TD'},
             {'seat': 1, 'type': 'play', 'card': '6D'}, {'seat': 2, 'type': 'play', 'card': '2D'},
             {'seat': 3, 'type': 'play', 'card': '8D'}, {'seat': 0, 'type': 'play', 'card': '5H'},
             {'seat': 1, 'type': 'play', 'card': '9D'}, {'seat': 2, 'type': 'play', 'card': '3H'},
             {'seat': 3, 'type': 'play', 'card': 'KH'}, {'seat': 1, 'type': 'play', 'card': 'TH'},
             {'seat': 2, 'type': 'play', 'card': '8H'}, {'seat': 3, 'type': 'play', 'card': '4C'},
             {'seat': 0, 'type': 'play', 'card': 'KD'}, {'seat': 0, 'type': 'play', 'card': 'TS'},
             {'seat': 1, 'type': 'play', 'card': '7S'}, {'seat': 2, 'type': 'play', 'card': 'QH'},
             {'seat': 3, 'type': 'play', 'card': '8S'}, {'seat': 0, 'type': 'play', 'card': '8C'},
             {'seat': 1, 'type': 'play', 'card': '3C'}, {'seat': 2, 'type': 'play', 'card': '6C'},
             {'seat': 3, 'type': 'play', 'card': '3D'}, {'seat': 3, 'type': 'play', 'card': 'QC'},
             {'seat': 0, 'type': 'play', 'card': 'AC'}, {'seat': 1, 'type': 'play', 'card': 'JC'},
             {'seat': 2, 'type': 'play', 'card': '2C'}],
 'scores_before': [3, -2]}
