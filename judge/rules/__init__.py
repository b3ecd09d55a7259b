"""Rule index and coverage (judge.rules.index, judge.rules.coverage)."""

from judge.rules.index import Rule, UnknownRule, get, ids, is_known, rules, summary

__all__ = ["Rule", "UnknownRule", "get", "ids", "is_known", "rules", "summary"]
