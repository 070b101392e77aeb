"""The game-agnostic core: errors, randomness, hashing, events, the family interface and its
registry, the log envelope, the replay loop and the verifier. Nothing here names a game."""
