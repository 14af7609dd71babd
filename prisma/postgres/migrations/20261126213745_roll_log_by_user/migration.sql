-- CreateIndex
CREATE INDEX "Roll_guildId_userId_createdAt_idx" ON "Roll"("guildId", "userId", "createdAt");

