"""Altair chart builders."""
