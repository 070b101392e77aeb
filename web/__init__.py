"""The Flask web app (see web/app.py)."""
