import { createRouter, createWebHashHistory } from 'vue-router'
import { pageScroll } from './page-scroll.ts'

// Hash history: the page is one file (index.html) and the route lives in the fragment, so the
// app protocol only ever serves real files.
export const router = createRouter({
  history: createWebHashHistory(),
  // A page opened starts at its top; Back and Forward return to where it was (page-scroll.ts).
  scrollBehavior: pageScroll,
  routes: [
    { path: '/', redirect: '/skus' },
    // Lazy as every page, the first one too: its modules run in a task of their own once fetched,
    // not in the one task that ran the whole app before the list showed (issue #37, main.ts).
    { path: '/skus', component: () => import('./features/skus/SkuListPage.vue'), meta: { title: 'SKUs' } },
    {
      path: '/skus/:id',
      component: () => import('./features/skus/SkuEditorPage.vue'),
      props: true,
      meta: { title: 'Edit SKU' },
    },
    {
      path: '/import',
      component: () => import('./features/import/ImportPage.vue'),
      meta: { title: 'Import SKUs' },
    },
    { path: '/apps', component: () => import('./features/apps/AppsPage.vue'), meta: { title: 'Apps' } },
    {
      path: '/apps/:id',
      component: () => import('./features/apps/AppEditor.vue'),
      props: true,
      meta: { title: 'Edit app' },
    },
    { path: '/sync', component: () => import('./features/sync/SyncPage.vue'), meta: { title: 'Sync' } },
    {
      path: '/settings',
      component: () => import('./features/settings/SettingsPage.vue'),
      meta: { title: 'Settings' },
    },
  ],
})

router.afterEach((to) => {
  document.title = to.meta.title ? `${String(to.meta.title)} · Catalog Desk` : 'Catalog Desk'
})
