from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    """Somebody on the club's roster, or a guest added at a table."""

    name = models.CharField(_("name"), max_length=80)
    nickname = models.CharField(_("nickname"), max_length=40, blank=True)
    licence = models.CharField(_("licence number"), max_length=20, blank=True)
    active = models.BooleanField(_("active"), default=True)
    guest = models.BooleanField(_("guest"), default=False)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = [Lower("name")]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(Lower("name"), name="player_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        return f"{self.name} ({self.nickname})" if self.nickname else self.name

    @property
    def short_name(self) -> str:
        return self.nickname or self.name
