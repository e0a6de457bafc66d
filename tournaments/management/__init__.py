"""Django management commands of the tournaments app."""
