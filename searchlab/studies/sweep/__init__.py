"""The sweep: its session, report.md, the policies and pruning sections, the tables' export."""
