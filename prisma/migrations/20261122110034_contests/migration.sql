-- CreateTable
CREATE TABLE "Contest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "messageId" TEXT,
    "challengerId" TEXT NOT NULL,
    "opponentId" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Contest_phase_expiresAt_idx" ON "Contest"("phase", "expiresAt");

-- CreateIndex
CREATE INDEX "Contest_guildId_challengerId_idx" ON "Contest"("guildId", "challengerId");

-- CreateIndex
CREATE INDEX "Contest_guildId_opponentId_idx" ON "Contest"("guildId", "opponentId");

