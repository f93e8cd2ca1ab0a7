"""Storage for the web table: SQLAlchemy models, the database engine and Alembic migrations."""
