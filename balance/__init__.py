"""Balance reports: many seeded games played by agents, the balance told with intervals
(docs/balance.md)."""
