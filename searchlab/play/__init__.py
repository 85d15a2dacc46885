"""Playing games between search configurations: matches, scores, Elo differences."""
