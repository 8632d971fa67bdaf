"""Helpers shared by the forms of every app."""

from django import forms
from django.core.exceptions import ValidationError


def add_validation_error(form: forms.Form, error: ValidationError) -> None:
    """Show a service's ValidationError on the form: by field where it names one."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def posted_int(request, name: str, default: int) -> int:
    """A whole number from a hidden POST field; a missing or junk value gives `default`."""
    try:
        return int(request.POST.get(name, default))
    except (TypeError, ValueError):
        return default
