"""What several browser tests do the same way."""

from __future__ import annotations


def log_in(page, live_url: str, next_path: str, user="td", password="td-pass-123") -> None:
    """Log in through the login page (the director by default) and land on ``next_path``."""
    page.goto(f"{live_url}/login/?next={next_path}")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", password)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_url}{next_path}")
