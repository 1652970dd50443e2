import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkWorkspace } from '#node/team/workspace-check.ts'
import { startTeamServer, type TeamServer } from '../../e2e/harness/team-server.ts'
import { closedPort } from '../loopback-servers.ts'

let server: TeamServer
let workspace: string

beforeAll(async () => {
  server = await startTeamServer()
  workspace = await server.createWorkspace('autumn', [{ username: 'ana', password: 'ana-pass' }])
  await server.createWorkspace('winter', [{ username: 'ben', password: 'ben-pass' }])
})
afterAll(() => server.close())

describe('joining a team workspace (issue #41)', () => {
  it('names the desk by the user the server answers for, when that user is a member', async () => {
    expect(await checkWorkspace({ url: `${workspace}/`, username: 'ana', password: 'ana-pass' })).toEqual({
      ok: true,
      name: 'ana',
    })
  })

  it('says which of the address, the password, the membership or the database is wrong', async () => {
    const ana = { username: 'ana', password: 'ana-pass' }
    expect(await checkWorkspace({ ...ana, url: 'http://couch.example.com/autumn' })).toMatchObject({
      ok: false,
      problem: 'address',
      message: expect.stringMatching(/https:\/\//),
    })
    expect(
      await checkWorkspace({ ...ana, url: `${server.url.replace('//', '//ana:x@')}/autumn` }),
    ).toMatchObject({
      problem: 'address',
    })
    expect(await checkWorkspace({ ...ana, password: 'wrong', url: workspace })).toMatchObject({
      problem: 'credentials',
    })
    expect(await checkWorkspace({ username: 'ben', password: 'ben-pass', url: workspace })).toMatchObject({
      problem: 'not-a-member',
      message: 'ben is not a member of the workspace autumn: ask its administrator.',
    })
    expect(await checkWorkspace({ ...ana, url: `${server.url}/spring` })).toMatchObject({
      problem: 'no-database',
    })
    expect(
      await checkWorkspace({ ...ana, url: `http://127.0.0.1:${await closedPort()}/autumn` }),
    ).toMatchObject({
      problem: 'unreachable',
    })
  })
})
