-- AlterTable
ALTER TABLE "Operator" ADD COLUMN "avatarUrl" TEXT;

-- CreateTable
CREATE TABLE "SavedRoll" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guildId" TEXT NOT NULL,
    "operatorId" INTEGER,
    "scope" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "roll" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "SavedRoll_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChannelWebhook" (
    "channelId" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "JournalEntry" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "userId" TEXT,
    "kind" TEXT NOT NULL,
    "details" TEXT NOT NULL,
    "rollId" TEXT,
    "secret" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "PlaySession" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guildId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "day" TEXT,
    "title" TEXT NOT NULL DEFAULT '',
    "secret" TEXT NOT NULL,
    "commitment" TEXT NOT NULL,
    "openKey" TEXT,
    "channelId" TEXT,
    "openedBy" TEXT,
    "openedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" DATETIME
);

-- AlterTable: columns added in place, so a large roll log is not copied
ALTER TABLE "Roll" ADD COLUMN "blind" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Roll" ADD COLUMN "revealedAt" DATETIME;
ALTER TABLE "Roll" ADD COLUMN "odds" REAL;
ALTER TABLE "Roll" ADD COLUMN "d100" INTEGER;
ALTER TABLE "Roll" ADD COLUMN "sessionId" INTEGER;
ALTER TABLE "Roll" ADD COLUMN "seedIndex" INTEGER;
ALTER TABLE "Roll" ADD COLUMN "invocation" TEXT;

-- CreateIndex
CREATE INDEX "Roll_sessionId_seedIndex_idx" ON "Roll"("sessionId", "seedIndex");

-- CreateIndex
CREATE UNIQUE INDEX "SavedRoll_guildId_scope_nameKey_key" ON "SavedRoll"("guildId", "scope", "nameKey");

-- CreateIndex
CREATE INDEX "ChannelWebhook_guildId_idx" ON "ChannelWebhook"("guildId");

-- CreateIndex
CREATE INDEX "JournalEntry_guildId_createdAt_idx" ON "JournalEntry"("guildId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PlaySession_openKey_key" ON "PlaySession"("openKey");

-- CreateIndex
CREATE INDEX "PlaySession_guildId_openedAt_idx" ON "PlaySession"("guildId", "openedAt");

