-- CreateTable
CREATE TABLE "InitiativeTracker" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "messageId" TEXT,
    "system" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Server" (
    "guildId" TEXT NOT NULL PRIMARY KEY,
    "dispatcherRoleId" TEXT,
    "contestTimeoutMinutes" INTEGER NOT NULL DEFAULT 15,
    "contestAddsOwnSkill" BOOLEAN NOT NULL DEFAULT false,
    "defaultSystem" TEXT NOT NULL DEFAULT 'tactalk',
    "playerChallengeRolls" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Server" ("contestAddsOwnSkill", "contestTimeoutMinutes", "createdAt", "defaultSystem", "dispatcherRoleId", "guildId", "updatedAt") SELECT "contestAddsOwnSkill", "contestTimeoutMinutes", "createdAt", "defaultSystem", "dispatcherRoleId", "guildId", "updatedAt" FROM "Server";
DROP TABLE "Server";
ALTER TABLE "new_Server" RENAME TO "Server";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "InitiativeTracker_guildId_channelId_idx" ON "InitiativeTracker"("guildId", "channelId");

