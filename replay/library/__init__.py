"""The library of verified games: an SQLite file (``store``) and the rows made from reports
(``rows``). The web app serves it; ``python -m replay ingest`` fills it from a corpus."""
