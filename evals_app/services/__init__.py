"""Business rules: plain functions that read and change the database, used by views and commands."""
