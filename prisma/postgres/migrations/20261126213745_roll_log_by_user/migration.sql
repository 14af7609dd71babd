-- CreateIndex
CREATE INDEX "Roll_guildId_userId_createdAt_id_idx" ON "Roll"("guildId", "userId", "createdAt", "id");

