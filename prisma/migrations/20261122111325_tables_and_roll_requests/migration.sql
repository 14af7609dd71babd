-- CreateTable
CREATE TABLE "OutcomeTable" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guildId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "die" TEXT NOT NULL DEFAULT 'd100',
    "asks" TEXT NOT NULL DEFAULT '',
    "skill" TEXT,
    "rows" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "RollRequest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "messageId" TEXT,
    "dispatcherId" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "OutcomeTable_guildId_nameKey_key" ON "OutcomeTable"("guildId", "nameKey");

-- CreateIndex
CREATE INDEX "RollRequest_guildId_playerId_idx" ON "RollRequest"("guildId", "playerId");

