"""The terminal front end: the game, the multi-player table, the trainers, their text and
input."""
